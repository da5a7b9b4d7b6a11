import { readInput } from "./_input.mjs";

const { ms } = await readInput();
await new Promise((resolve) => setTimeout(resolve, ms));
console.log(`waited ${ms} ms`);
