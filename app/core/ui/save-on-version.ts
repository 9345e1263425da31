/** What `saveOnVersion` reads: the resource and the ETag of the stored version it was read at. */
export interface ReadVersion<C> {
  value: C;
  etag: string | null;
}

/**
 * Saves an edit that is merged onto the resource as it is now (a list the API takes whole: a game's
 * divisions, a challenge's hints) so that no save landing meanwhile is overwritten. Reads the resource,
 * then `write`s the body merged onto what it read, on condition (`If-Match`) that the stored version is
 * still the one read. When another save landed between the read and the write (`isStale`: the 412), it
 * reads and merges again, up to `attempts` writes in all; then the last refusal is thrown, as is any
 * other failure at once.
 */
export async function saveOnVersion<C, R>({
  read,
  write,
  isStale,
  attempts = 4,
}: {
  read: () => Promise<ReadVersion<C>>;
  write: (current: C, etag: string | null) => Promise<R>;
  isStale: (error: unknown) => boolean;
  attempts?: number;
}): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    const current = await read();
    try {
      return await write(current.value, current.etag);
    } catch (error) {
      if (attempt >= attempts || !isStale(error)) throw error;
    }
  }
}
