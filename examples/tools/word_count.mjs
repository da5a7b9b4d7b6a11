import { readInput } from "./_input.mjs";

const { text } = await readInput();
const words = text.split(/\s+/).filter(Boolean).length;
const lines = text === "" ? 0 : text.split("\n").length;
console.log(JSON.stringify({ words, lines, characters: [...text].length }));
