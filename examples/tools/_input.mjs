// Reads the tool's input: one JSON object on stdin.
export async function readInput() {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  return JSON.parse(text);
}
