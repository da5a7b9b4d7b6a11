/**
 * What `basis-tools init` writes: a manifest naming its JSON Schema, and one small tool that reads
 * its input as JSON on stdin and takes one field of it as an argument.
 *
 * @module
 */

import { VERSION } from "../../version.ts";

/** Where the example tool's script goes, relative to the workspace root. */
export const INIT_SCRIPT = ".basis/tools/hello.sh";
/** The example tool's name. */
export const INIT_TOOL = "hello";

/**
 * The address of a shipped JSON Schema, for `$schema`: the published package's copy of this
 * version.
 *
 * @param name `tools`, `spawn` or `rules`.
 * @returns The URL.
 */
export function schemaUrl(name: "tools" | "spawn" | "rules"): string {
  return `https://jsr.io/@basis/tools/${VERSION}/schemas/${name}.schema.json`;
}

/**
 * The manifest `init` writes.
 *
 * @returns Its text, ending with a newline.
 */
export function initManifest(): string {
  const manifest = {
    $schema: schemaUrl("tools"),
    schema: 1,
    tools: {
      [INIT_TOOL]: {
        description: "Say hello to someone by name",
        input_schema: {
          type: "object",
          properties: {
            name: { type: "string", description: "Who to greet", minLength: 1 },
          },
          required: ["name"],
          additionalProperties: false,
        },
        command: [`./${INIT_SCRIPT}`, { input: "name" }],
        // The rest of the tool's code: an approval pins these files too.
        files: [".basis/tools/*"],
      },
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * The example tool's script (POSIX sh, no dependencies).
 *
 * @returns Its text.
 */
export function initScript(): string {
  return `#!/bin/sh
# A basis-tools tool. The input arrives as one JSON object on stdin, for example
# {"name":"world"}; {"input": "name"} in .basis/tools.json also passes the name as $1.
# What it prints on stdout is the result; a non-zero exit is a failure, with stderr as the reason.
input=$(cat)
printf 'Hello, %s! (the whole input was %s)\\n' "$1" "$input"
`;
}
