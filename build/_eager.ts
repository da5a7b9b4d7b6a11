/**
 * A bundle step: makes V8 compile a chunk's functions when it compiles the chunk, so that Deno's
 * code cache (written right after a module is compiled, before it runs) holds them. V8 otherwise
 * compiles each function on its first call, in every process: a third of a cold `list` or `call`.
 *
 * V8 compiles a function eagerly when an opening parenthesis comes right before it. So every
 * function expression and arrow is put in parentheses, and every function declaration at the top of
 * a module or a function body becomes `var name=(function name(…){…});` at the top of that scope:
 * where hoisting puts it, so it is defined before any statement of the scope runs. Methods, and
 * declarations inside blocks, are left as they are.
 *
 * @module
 */

import { type Node, parse } from "acorn";

/** A node as acorn gives it: its kind, where it is, and its fields (children among them). */
type AnyNode = Node & Record<string, unknown>;

const isNode = (value: unknown): value is AnyNode =>
  typeof value === "object" && value !== null && typeof (value as Node).type === "string";

/** The node's children, in source order. */
function children(node: AnyNode): AnyNode[] {
  const out: AnyNode[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "type" || key === "start" || key === "end") continue;
    if (Array.isArray(value)) out.push(...value.filter(isNode));
    else if (isNode(value)) out.push(value);
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * The module's code with its functions compiled eagerly.
 *
 * @param code A module, as the bundler wrote it.
 * @returns The same module, rewritten.
 */
export function eagerFunctions(code: string): string {
  // The node's text, its children rewritten (a child sharing its parent's text, such as a
  // shorthand property's key and value, once).
  const rewrite = (node: AnyNode, parent: AnyNode | undefined): string => {
    const scope = node.type === "Program" ||
      (node.type === "BlockStatement" && parent !== undefined && parent.type.includes("Function"));
    let hoisted = "";
    let text = "";
    let at = node.start;
    for (const child of children(node)) {
      if (child.start < at) continue;
      text += code.slice(at, child.start);
      const id = child.id as { name: string } | null | undefined;
      if (scope && child.type === "FunctionDeclaration" && id) {
        hoisted += `var ${id.name}=(${rewrite(child, undefined)});`;
      } else {
        text += rewrite(child, node);
      }
      at = child.end;
    }
    text += code.slice(at, node.end);
    if (hoisted !== "" && node.type === "Program") {
      // After a hashbang line, which must stay first.
      const after = text.startsWith("#!") ? text.indexOf("\n") + 1 || text.length : 0;
      text = text.slice(0, after) + hoisted + text.slice(after);
    } else if (hoisted !== "") text = `{${hoisted}${text.slice(1)}`;
    const method = parent !== undefined &&
      (parent.type === "MethodDefinition" ||
        (parent.type === "Property" && (parent.method === true || parent.kind !== "init")));
    const expression = node.type === "FunctionExpression" ||
      node.type === "ArrowFunctionExpression";
    if (!expression || method) return text;
    // A statement that begins with the function: a `;` first, so that no line before it without
    // one is continued by the parenthesis.
    const starts = parent?.type === "ExpressionStatement" && parent.start === node.start;
    return starts ? `;(${text})` : `(${text})`;
  };
  const program = parse(code, { ecmaVersion: "latest", sourceType: "module" });
  return rewrite(program as unknown as AnyNode, undefined);
}
