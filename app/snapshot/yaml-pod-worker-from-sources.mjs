// Starts yaml-pod-worker.ts when Nodescope runs from its TypeScript sources (tests, an unbuilt CLI): the
// worker thread compiles it with tsx, as bin/run-ts.js does. Built bundles start their yaml-pod-worker.js.
import { register } from 'tsx/esm/api';

register();
await import('./yaml-pod-worker.ts');
