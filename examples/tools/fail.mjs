import { readInput } from "./_input.mjs";

const { reason = "nothing went right" } = await readInput();
console.error(`fail: ${reason}`);
process.exit(3);
