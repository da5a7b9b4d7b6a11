/**
 * `${VAR}` and `${VAR:-default}` expansion, applied once at load to `command` elements, `cwd` and
 * `env` values. Problems name the variable but never echo the text being expanded: it may hold a
 * secret.
 *
 * Rules: `$` not followed by `{` is literal (`$`, `$NAME`, `$$`). `${NAME}` is replaced by the
 * variable's value and is an error when it is unset (set but empty is fine). `${NAME:-default}` is
 * replaced by the default when the variable is unset or empty; the default is literal text and
 * may not itself contain `${`. A name is `[A-Za-z_][A-Za-z0-9_]*`; any other text inside the braces
 * (an invalid name, another operator such as `:=` or `-`) is an error. Unterminated `${` and empty
 * `${}` are errors. The result is never expanded again.
 *
 * A public `env` value (shown in previews, never redacted) may read only the variables of
 * {@linkcode PUBLIC_VARIABLES}: names of places and of the user, never secrets. Any other is refused
 * before it is read, so a cloned repository cannot show a host secret (`${AWS_SECRET_ACCESS_KEY}`)
 * by declaring it public. This is the one place that rule is kept.
 *
 * `command` and `cwd` are shown too, before approval and never redacted, and are held to the same
 * rule: a cloned repository cannot show a host secret by writing `--key=${AWS_SECRET_ACCESS_KEY}`.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import type { EnvLookup } from "../paths.ts";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/**
 * The variables a public `env` value may read (`*`: any upper-case word): where things are and who
 * the user is.
 */
export const PUBLIC_VARIABLES: readonly string[] =
  "HOME USER LOGNAME TMPDIR PWD PATH XDG_*_HOME XDG_RUNTIME_DIR".split(" ");
const PUBLIC = new RegExp(`^(?:${PUBLIC_VARIABLES.join("|").replaceAll("*", "[A-Z]+")})$`);

/** What refuses a variable a shown value may not read: a public env value's, or the command's. */
export type ShownValue = "manifest.expand_not_public" | "manifest.expand_shown";

/**
 * Expands every `${…}` in `text` from `env`.
 *
 * @param text The manifest string.
 * @param env How to read variables.
 * @param shown When the value is shown (not a secret), what refuses another variable: then only
 *   {@linkcode PUBLIC_VARIABLES} are read.
 * @returns The expanded value, or every reason it could not be expanded (none quotes `text`).
 */
export function expand(text: string, env: EnvLookup, shown?: ShownValue): string | Phrase[] {
  if (!text.includes("${")) return text;
  const reasons: Phrase[] = [];
  let end = 0;
  const value = text.replace(/\$\{([^}]*)\}/g, (match, inner: string, at: number) => {
    end = at + match.length;
    const replaced = expandOne(inner, env, shown);
    if (typeof replaced === "string") return replaced;
    reasons.push(replaced);
    return "";
  });
  // A "${" with no "}" after it: after the last one closed.
  if (text.includes("${", end)) reasons.push(phrase("manifest.expand_unterminated"));
  return reasons.length > 0 ? reasons : value;
}

function expandOne(inner: string, env: EnvLookup, shown?: ShownValue): string | Phrase {
  if (inner === "") return phrase("manifest.expand_empty");
  const name = NAME.exec(inner)?.[0];
  if (name === undefined) return phrase("manifest.expand_bad_name");
  const rest = inner.slice(name.length);
  const variable = quote(name);
  if (shown !== undefined && !PUBLIC.test(name)) {
    return phrase(shown, { variable, allowed: PUBLIC_VARIABLES.join(", ") });
  }
  const value = env(name);
  if (rest === "") return value ?? phrase("manifest.expand_unset", { variable, name });
  if (!rest.startsWith(":-")) return phrase("manifest.expand_unsupported", { variable });
  const fallback = rest.slice(2);
  if (fallback.includes("${")) return phrase("manifest.expand_nested", { variable });
  return value === undefined || value === "" ? fallback : value;
}

function quote(name: string): string {
  return JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
}
