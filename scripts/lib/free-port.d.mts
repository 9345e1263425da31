/** A random loopback port below the kernel's ephemeral range that nothing listens on right now. */
export function freePort(): Promise<number>;
