import type { ComponentProps } from "react";
import { Link } from "react-router";

export function TextLink({ className = "", ...props }: ComponentProps<typeof Link>) {
  return (
    <Link
      className={`font-medium text-primary-700 underline-offset-4 hover:underline dark:text-primary-300 ${className}`}
      {...props}
    />
  );
}
