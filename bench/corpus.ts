/** Pods for benchmarks when the shared real pods are absent: the simulator's generator, encoded. */
export async function benchCorpus(count: number): Promise<Uint8Array[]> {
  const { generatePods } = await import('../app/sim/pod-generator');
  const { encodePod } = await import('../app/pod/encode');
  return generatePods({ count, seed: 7, nodeName: 'bench-node' }).map((p) => encodePod(p));
}
