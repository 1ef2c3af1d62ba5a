// Owns loading the Node built-ins that start-up does not need (worker threads, V8's heap figures) on
// first use instead: a static import is evaluated before `initialize` is answered,
// and these cost 1-4 ms each to load (measured in docs/performance.md, "Start-up"). node:fs/promises
// is reached as `promises` of node:fs (`fsp.readFile`), a getter that loads it on first use.
// test/package/startModules.test.ts checks that none of them is loaded before `initialize` is answered.
import type * as V8 from 'node:v8';
import type * as WorkerThreads from 'node:worker_threads';

interface LazyBuiltins {
  'node:v8': typeof V8;
  'node:worker_threads': typeof WorkerThreads;
}

/** The built-in `id`, loaded now if nothing loaded it yet (Node caches it). */
export function builtin<Id extends keyof LazyBuiltins>(id: Id): LazyBuiltins[Id] {
  // process.getBuiltinModule: Node 20.16 and later; the bundle (CommonJS) has require on older ones.
  return (typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule(id) : require(id)) as LazyBuiltins[Id];
}
