// The Node the launcher needs, checked before it loads anything that needs it: the launcher imports the
// app's TypeScript (app/core) and starts the container agent's, which Node runs only with type stripping
// (on by default from 22.18). An older Node started directly (`node scripts/start.mjs`, the machine's own
// Node instead of the project's) otherwise dies in the module loader with a stack trace. This file is
// plain JavaScript importing nothing, so that any Node loads it.

/** The oldest Node that runs the launcher, as package.json's `engines` says (a test keeps them equal). */
export const REQUIRED_NODE = "22.18";

/** Whether dotted version `version` (`20.20.2`, `v22.23.3`) is older than `minimum` (`22.18`). */
export function olderThan(version, minimum) {
  const have = version.replace(/^v/, "").split(".").map(Number);
  const need = minimum.split(".").map(Number);
  for (let i = 0; i < need.length; i++) {
    const part = have[i] ?? 0;
    if (part !== need[i]) return part < need[i];
  }
  return false;
}

/**
 * What keeps this Node from running the launcher, as one line naming the Node it needs and the command to
 * use, or undefined. `typescript` is `process.features.typescript` ("strip", "transform"; false or absent
 * without type stripping); `build` whether the launcher was asked to build first (`npm start`).
 */
export function nodeProblem({ version, typescript, build }) {
  const command = build ? "`npm start`" : "`npm run serve` (or `npm start` to build first)";
  if (olderThan(version, REQUIRED_NODE)) {
    return `Node ${version} is too old: Flagstaff needs Node ≥ ${REQUIRED_NODE}, which \`npm install\` puts in node_modules; start it with ${command}, not with node directly`;
  }
  if (!typescript) {
    return `Node ${version} runs with TypeScript type stripping turned off (--no-experimental-strip-types, on the command line or in NODE_OPTIONS), which Flagstaff needs; start it with ${command} without that flag`;
  }
  return undefined;
}
