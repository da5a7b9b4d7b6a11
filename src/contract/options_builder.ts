/**
 * What every builder shares: it holds a source (a manifest spec, the spawn configuration) and
 * options, `configure()` changes the options for tools built from then on, and `build()` never
 * consumes anything.
 *
 * @module
 */

import type { Tool, ToolBuilder } from "./types.ts";

/**
 * A builder over a source and an options object; subclasses say how a tool is made from them.
 * {@linkcode DeclaredToolBuilder} and {@linkcode SpawnToolBuilder} are the two there are.
 *
 * @example Build twice, with different options
 * ```ts ignore
 * import { DeclaredToolBuilder } from "@basis/tools";
 * const builder = new DeclaredToolBuilder(spec, { locale: "en-US" });
 * const english = builder.build();
 * const ukrainian = builder.configure({ locale: "uk-UA" }).build(); // english is unchanged
 * ```
 */
export abstract class OptionsBuilder<Source, Options extends object, Extra>
  implements ToolBuilder<Extra> {
  readonly #source: Source;
  #options: Options;

  /**
   * Holds a source and options.
   *
   * @param source What tools are built from.
   * @param options The options for tools built from now on (every one is optional).
   */
  constructor(source: Source, options: Options = {} as Options) {
    [this.#source, this.#options] = [source, { ...options }];
  }

  /**
   * Changes options for the tools built from now on; earlier tools keep theirs.
   *
   * @param options The options to set (others are kept).
   * @returns This builder.
   */
  configure(options: Options): this {
    this.#options = { ...this.#options, ...options };
    return this;
  }

  /**
   * Makes a tool from the source and the options held now.
   *
   * @returns The tool.
   */
  build(): Tool<Extra> {
    return this.make(this.#source, { ...this.#options });
  }

  /** Makes one tool; the options are a copy the tool may keep. */
  protected abstract make(source: Source, options: Options): Tool<Extra>;
}
