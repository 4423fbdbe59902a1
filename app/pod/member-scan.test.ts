import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { podSchema, type MessageSchema } from '../schema/pod-schema';
import { DecodeContext } from './decode-context';
import { MemberScanner, scanTable } from './member-scan';
import { WireReader } from './wire-reader';

const schema = podSchema();
const message = (name: string): MessageSchema => schema.messages.get(`k8s.io.api.core.v1.${name}`)!;
const slot = (m: MessageSchema, member: string): number => m.members.findIndex((x) => x.name === member);
const field = (m: MessageSchema, member: string) => m.memberByName.get(member)!.field;
const tag = (m: MessageSchema, member: string) => (field(m, member).number << 3) | 2;

describe('the scan of a message', () => {
  it('notes the last of a repeated field, the first of a list with its region, and the members of an inline embed', () => {
    const volume = message('Volume');
    const container = message('Container');
    const W = () => protobuf.Writer.create();
    // Volume: name, then its VolumeSource (an inline embed: hostPath is a Volume member in JSON), then name again.
    const source = volume.fields.find((f) => f.inline)!;
    const firstName = W().uint32(tag(volume, 'name')).string('first').finish();
    const hostPath = W().uint32(tag(volume, 'hostPath')).fork().uint32(10).string('/x').ldelim().finish();
    const sourceHead = W().uint32((source.number << 3) | 2).uint32(hostPath.length).finish();
    const lastName = W().uint32(tag(volume, 'name')).string('second').finish();
    const bytes = new Uint8Array([...firstName, ...sourceHead, ...hostPath, ...lastName]);

    const r = new WireReader(bytes);
    const scanner = new MemberScanner(schema.pod);
    const base = scanner.open(r, bytes.length, scanTable(volume), new DecodeContext(r));
    expect(scanner.pos[base + slot(volume, 'name')]).toBe(bytes.length - lastName.length);
    expect(scanner.pos[base + slot(volume, 'hostPath')]).toBe(firstName.length + sourceHead.length);
    expect(scanner.pos[base + slot(volume, 'secret')]).toBe(-1);
    scanner.close(base);

    // Container: a port, the name, another port: the list is noted at its first element, its region the message.
    const c = protobuf.Writer.create();
    c.uint32(tag(container, 'ports')).fork().uint32(8 * 3).int32(80).ldelim();
    const afterPort = c.len;
    c.uint32(tag(container, 'name')).string('app');
    c.uint32(tag(container, 'ports')).fork().uint32(8 * 3).int32(443).ldelim();
    const cBytes = c.finish();
    const cr = new WireReader(cBytes);
    const cBase = scanner.open(cr, cBytes.length, scanTable(container), new DecodeContext(cr));
    expect(cBase).toBe(base);
    expect(scanner.pos[cBase + slot(container, 'ports')]).toBe(0);
    expect(scanner.ends[cBase + slot(container, 'ports')]).toBe(cBytes.length);
    expect(scanner.pos[cBase + slot(container, 'name')]).toBe(afterPort);
  });

  it('keeps a message open while the ones in it are scanned above it, as deep as the schema goes and no deeper', () => {
    const scanner = new MemberScanner(schema.pod);
    const empty = new WireReader(new Uint8Array(0));
    const c = new DecodeContext(empty);
    const pod = scanner.open(empty, 0, scanTable(schema.pod), c);
    const spec = scanner.open(empty, 0, scanTable(message('PodSpec')), c);
    expect(spec).toBe(pod + schema.pod.members.length);
    scanner.close(spec);
    expect(scanner.open(empty, 0, scanTable(message('PodSpec')), c)).toBe(spec);
    // Messages opened without ever being closed: the stack refuses rather than drop notes.
    expect(() => {
      for (let i = 0; i < 1000; i++) scanner.open(empty, 0, scanTable(message('PodSpec')), c);
    }).toThrow(/PodSpec opened deeper than its schema allows/);
    scanner.reset();
    expect(scanner.open(empty, 0, scanTable(schema.pod), c)).toBe(0);
  });
});
