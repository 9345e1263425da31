import type { ReactNode } from "react";

/** The narrow, centred frame of the sign-in and sign-up screens. */
export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md py-6 sm:py-12">
      <div className="rounded-xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8 dark:border-zinc-800 dark:bg-zinc-900/60">
        <h1 className="mb-6 text-2xl font-semibold tracking-tight">{title}</h1>
        {children}
      </div>
      {footer ? <div className="mt-6 text-center text-sm text-zinc-700 dark:text-zinc-300">{footer}</div> : null}
    </div>
  );
}
