/**
 * Counters the tests and benches read to prove which path a validation took.
 *
 * @module
 */

/** How often each path of the gate ran in this process. */
export interface GateStats {
  /** Times ajv's compiler was imported (at most once per draft). */
  compilerLoads: number;
  /** Schemas compiled with ajv. */
  compiles: number;
  /** Validators instantiated (or schema problems read) from a cache file. */
  diskHits: number;
  /** Cache files written (validators and schema problems). */
  diskWrites: number;
  /** Cache files that existed but could not be used (corrupt, unsafe, failed to load). */
  diskRejects: number;
}

/** The live counters; only tests should reset them. */
export const stats: GateStats = {
  compilerLoads: 0,
  compiles: 0,
  diskHits: 0,
  diskWrites: 0,
  diskRejects: 0,
};
