/**
 * Extended expiry times, kept on disk so an agent restart does not fall back to the creation-time
 * `flagstaff.expect-stop-at` label (labels cannot change after creation). Writes are atomic and serialised.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

export class StateStore {
  private data: Record<string, number> = {};
  private writing: Promise<void> = Promise.resolve();

  private readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  async load(): Promise<void> {
    try {
      const parsed = JSON.parse(await readFile(this.path, "utf8")) as { expectStopAt?: Record<string, number> };
      this.data = parsed.expectStopAt ?? {};
    } catch {
      this.data = {};
    }
  }

  expectStopAt(instanceId: string): number | undefined {
    return this.data[instanceId];
  }

  set(instanceId: string, expectStopAt: number): Promise<void> {
    this.data[instanceId] = expectStopAt;
    return this.save();
  }

  delete(instanceId: string): Promise<void> {
    if (!(instanceId in this.data)) return this.writing;
    delete this.data[instanceId];
    return this.save();
  }

  /** Drops entries for instances that no longer exist. */
  retain(instanceIds: Set<string>): Promise<void> {
    let changed = false;
    for (const id of Object.keys(this.data)) {
      if (!instanceIds.has(id)) {
        delete this.data[id];
        changed = true;
      }
    }
    return changed ? this.save() : this.writing;
  }

  private save(): Promise<void> {
    const snapshot = JSON.stringify({ expectStopAt: this.data });
    this.writing = this.writing.catch(() => {}).then(async () => {
      await mkdir(dirname(this.path), { recursive: true });
      const tmp = `${this.path}.${process.pid}.tmp`;
      await writeFile(tmp, snapshot);
      await rename(tmp, this.path);
    });
    return this.writing;
  }
}
