/**
 * The validators of the shipped schemas (`schemas/*.schema.json`), compiled when the bundle is
 * built: `build/bundle.ts` bundles a copy of the source in which this module holds them
 * (`build/_validators.ts`). Run from source, it holds none, and they are compiled at run time.
 * Private to the schema seam.
 *
 * @module
 */

/** A validator's standalone code as a function of CommonJS's `require`, `module` and `exports`. */
export interface BuiltIn {
  /** The modules it requires, by the names standalone code uses. */
  readonly requires: readonly string[];
  /** Sets `module.exports` to the validate function. */
  readonly make: (
    require: (name: string) => unknown,
    module: { exports: unknown },
    exports: unknown,
  ) => void;
}

/** Validators by `builtInKey()` of their schema, each loaded (a module of its own) on first need. */
export const BUILT_IN: ReadonlyMap<string, () => Promise<BuiltIn>> = new Map();
