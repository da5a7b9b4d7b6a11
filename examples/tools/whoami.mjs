import { readInput } from "./_input.mjs";

const { name } = await readInput();
const token = process.env.API_TOKEN ?? "";
console.log(`${name}, you are signed in with a token of ${token.length} characters`);
