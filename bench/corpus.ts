/** Pods for benchmarks when the shared real pods are absent: the simulator's generator, encoded. */
export async function benchCorpus(count: number): Promise<Uint8Array[]> {
  const { generatePods } = await import('../app/sim/pod-generator');
  const { encodePod } = await import('../app/pod/encode');
  // A fixed clock keeps the generated pods, and so the numbers, the same from run to run.
  return generatePods(count, { seed: 7, nodeName: 'bench-node', nowMs: Date.UTC(2026, 5, 26, 10, 0, 0) }).map((p) => encodePod(p));
}
