/**
 * Three-way merge of a challenge's hints edited in one tab while another may have saved them: `base` is
 * what this tab loaded, `mine` what it now holds, `theirs` what the server holds now. Hints are plain
 * strings with no ids (the PUT takes the whole list, and a missing hint is deleted), so each side is lined
 * up with `base` by value and position (`align`): a hint found again is kept, one gone from between two
 * kept hints with a new one in its place was edited, and the rest were removed or added.
 *
 * The result is the server's list with this tab's changes applied: a hint this tab edited takes its text
 * (also when the other tab edited the same hint), one it removed goes, one the other tab removed stays
 * removed, and each side's new hints stand where they were added — the server's first (players may have
 * seen them already), then this tab's. A hint both tabs added alike is there once (a save repeated after
 * its answer was lost adds nothing).
 */
export function mergeHints(base: readonly string[], mine: readonly string[], theirs: readonly string[]): string[] {
  const ours = align(base, mine);
  const others = align(base, theirs);
  const out: string[] = [...others.added[0]!, ...uniqueAdditions(ours.added[0]!, others.added[0]!)];
  for (let i = 0; i < base.length; i++) {
    const mineAt = ours.kept[i]!;
    const theirsAt = others.kept[i]!;
    if (mineAt !== null && theirsAt !== null) out.push(mineAt !== base[i] ? mineAt : theirsAt);
    const gap = i + 1;
    out.push(...others.added[gap]!, ...uniqueAdditions(ours.added[gap]!, others.added[gap]!));
  }
  return out;
}

/** This tab's additions at one place, less those the others added there too (each counted once). */
function uniqueAdditions(mine: readonly string[], theirs: readonly string[]): string[] {
  const left = [...theirs];
  return mine.filter((hint) => {
    const at = left.indexOf(hint);
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}

interface Alignment {
  /** For each hint of `base`: its text in the other list (itself, or as edited), or null when removed. */
  kept: (string | null)[];
  /** For each place in `base` (0 before the first hint … base.length after the last): the hints added there. */
  added: string[][];
}

/**
 * Lines `next` up with `base`: the longest common subsequence of equal hints are the ones kept; between two
 * of them, the hints of `base` missing from `next` pair in order with the new hints there as edits, an
 * extra hint of `base` was removed and an extra new hint was added (after the edited ones).
 */
export function align(base: readonly string[], next: readonly string[]): Alignment {
  const pairs = commonSubsequence(base, next);
  const kept: (string | null)[] = base.map(() => null);
  const added: string[][] = Array.from({ length: base.length + 1 }, () => []);
  let b = 0;
  let n = 0;
  for (const [bi, ni] of [...pairs, [base.length, next.length] as const]) {
    const gone = bi - b;
    const fresh = next.slice(n, ni);
    const edits = Math.min(gone, fresh.length);
    for (let k = 0; k < edits; k++) kept[b + k] = fresh[k]!;
    added[bi]!.push(...fresh.slice(edits));
    if (bi < base.length) kept[bi] = base[bi]!;
    b = bi + 1;
    n = ni + 1;
  }
  return { kept, added };
}

/** Index pairs of a longest common subsequence of two short lists (dynamic programming, O(n·m)). */
function commonSubsequence(a: readonly string[], b: readonly string[]): (readonly [number, number])[] {
  const length: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      length[i]![j] = a[i] === b[j] ? length[i + 1]![j + 1]! + 1 : Math.max(length[i + 1]![j]!, length[i]![j + 1]!);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (length[i + 1]![j]! >= length[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}
