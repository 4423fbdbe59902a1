import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import { podProtoDescriptor } from './pod-proto.generated';
import { podProtoDescriptorText } from '../proto/pod-proto-descriptor';
import { compareGoKeys, podSchema } from './pod-schema';

describe('pod schema', () => {
  const schema = podSchema();

  it('has every message reachable from Pod, under upstream package names', () => {
    expect(schema.messages.size).toBe(137);
    const packages = new Set([...schema.messages.keys()].map((n) => n.slice(0, n.lastIndexOf('.'))));
    expect([...packages].sort()).toEqual([
      'k8s.io.api.core.v1',
      'k8s.io.apimachinery.pkg.api.resource',
      'k8s.io.apimachinery.pkg.apis.meta.v1',
      'k8s.io.apimachinery.pkg.util.intstr',
    ]);
    expect(schema.pod.fullName).toBe('k8s.io.api.core.v1.Pod');
  });

  it('keeps upstream field numbers and Go kinds', () => {
    const spec = schema.messages.get('k8s.io.api.core.v1.PodSpec')!;
    const priority = spec.memberByName.get('priority')!.field;
    expect([priority.number, priority.scalar, priority.goKind]).toEqual([25, 'int32', 'pointer']);
    const meta = schema.messages.get('k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta')!;
    expect(meta.memberByName.get('managedFields')!.field.number).toBe(17);
    expect(meta.memberByName.get('creationTimestamp')!.field.omitzero).toBe(true);
  });

  it('flattens the ten inline embeds into their parents, as JSON does', () => {
    const volume = schema.messages.get('k8s.io.api.core.v1.Volume')!;
    expect(volume.memberByName.has('hostPath')).toBe(true);
    expect(volume.memberByName.has('volumeSource')).toBe(false);
    const ephemeral = schema.messages.get('k8s.io.api.core.v1.EphemeralContainer')!;
    expect(ephemeral.memberByName.has('image')).toBe(true);
    expect(ephemeral.memberByName.has('targetContainerName')).toBe(true);
    const inline = [...schema.messages.values()].flatMap((m) => m.fields.filter((f) => f.inline).map((f) => `${m.name}.${f.protoName}`));
    expect(inline).toHaveLength(10);
  });

  it('reads every field of the descriptor as protobufjs does: number, type, list or map', () => {
    const root = protobuf.Root.fromJSON(podProtoDescriptor as protobuf.INamespace);
    root.resolveAll();
    for (const m of schema.messages.values()) {
      const type = root.lookupType(m.fullName);
      const expected = [...type.fieldsArray]
        .sort((a, b) => a.id - b.id)
        .map((f) => [f.name, f.id, f.resolvedType ? f.resolvedType.fullName.slice(1) : f.type, f.repeated, f instanceof protobuf.MapField]);
      expect(m.fields.map((f) => [f.protoName, f.number, f.message?.fullName ?? f.scalar, f.repeated, f.map]), m.fullName).toEqual(expected);
    }
  });

  it('sorts keys as Go does, by UTF-8 bytes', () => {
    expect(['b', 'a', 'B', '\uffff', '\u{1f600}'].sort(compareGoKeys)).toEqual(['B', 'a', 'b', '\uffff', '\u{1f600}']);
  });

  it('loads from a descriptor that matches proto/ (run scripts/gen-pod-proto.ts after changing it)', () => {
    expect(readFileSync(new URL('./pod-proto.generated.ts', import.meta.url), 'utf8')).toBe(podProtoDescriptorText());
  });
});
