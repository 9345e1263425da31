import { initialOf } from "~/core/text-length";

/** A team's avatar, or its initial on a tinted disc. */
export function TeamAvatar({ name, avatar, size = "md" }: { name: string; avatar: string | null; size?: "sm" | "md" | "lg" }) {
  const box = size === "lg" ? "size-16 text-2xl" : size === "md" ? "size-12 text-lg" : "size-8 text-sm";
  if (avatar) return <img src={avatar} alt="" className={`${box} shrink-0 rounded-full object-cover`} />;
  return (
    <span
      aria-hidden="true"
      className={`${box} grid shrink-0 place-items-center rounded-full bg-primary-100 font-semibold text-primary-800 dark:bg-primary-900 dark:text-primary-100`}
    >
      {initialOf(name)}
    </span>
  );
}
