/**
 * Reading the README and docs/ as a user does: the documents, their shell lines, and the words of
 * a shell command line as sh splits them.
 *
 * @module
 */

import { ROOT } from "./_fixtures.ts";

/** One command line shown in a document, with where it is. */
export interface Shown {
  where: string;
  line: string;
}

/** The README and every file of docs/, as paths from the repository's root. */
export async function documents(): Promise<string[]> {
  const docs: string[] = [];
  for await (const entry of Deno.readDir(`${ROOT}docs`)) {
    if (entry.isFile && entry.name.endsWith(".md")) docs.push(`docs/${entry.name}`);
  }
  return ["README.md", ...docs.sort()];
}

/** The shell lines of a document's ```sh and ```console blocks, continuations joined. */
export function shellLines(file: string, text: string): Shown[] {
  const shown: Shown[] = [];
  for (const block of text.matchAll(/```(sh|console)\n([\s\S]*?)```/g)) {
    const first = text.slice(0, block.index).split("\n").length + 1;
    const lines = block[2]!.split("\n");
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i]!;
      if (block[1] === "console") {
        if (!line.startsWith("$ ")) continue;
        line = line.slice(2);
      }
      const at = i;
      while (line.endsWith("\\") && i + 1 < lines.length) line = line.slice(0, -1) + lines[++i];
      shown.push({ where: `${file}:${first + at}`, line });
    }
  }
  return shown;
}

/**
 * The words of a simple shell command line, as sh would split them (quotes, backslashes, a `#`
 * comment), up to the first operator (`|`, `&&`, `;`, a redirection) — or `undefined` for a line
 * this reader cannot take apart.
 */
export function shellWords(line: string): string[][] {
  const commands: string[][] = [[]];
  let word: string | undefined;
  const end = () => {
    if (word !== undefined) commands.at(-1)!.push(word);
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close === -1) throw new Error(`an unclosed ' in ${line}`);
      word = (word ?? "") + line.slice(i + 1, close);
      i = close;
    } else if (c === '"') {
      let text = "";
      for (i++; i < line.length && line[i] !== '"'; i++) {
        text += line[i] === "\\" && /["\\$`]/.test(line[i + 1] ?? "") ? line[++i] : line[i];
      }
      if (i === line.length) throw new Error(`an unclosed " in ${line}`);
      word = (word ?? "") + text;
    } else if (c === "\\") {
      word = (word ?? "") + (line[++i] ?? "");
    } else if (c === " " || c === "\t") {
      end();
    } else if (c === "#" && word === undefined) {
      break;
    } else if (c === "|" || c === ";" || c === "&" || c === ">" || c === "<") {
      end();
      // What follows an operator is another command (or a file), not this one's arguments.
      while (/[|;&<>0-9]/.test(line[i + 1] ?? "")) i++;
      commands.push([]);
      if (c === ">" || c === "<") {
        // The file of a redirection is not a word of any command.
        while (line[i + 1] === " ") i++;
        while (i + 1 < line.length && line[i + 1] !== " ") i++;
      }
    } else if (/[0-9]/.test(c) && line[i + 1] === ">" && word === undefined) {
      continue;
    } else {
      word = (word ?? "") + c;
    }
  }
  end();
  return commands.filter((words) => words.length > 0);
}
