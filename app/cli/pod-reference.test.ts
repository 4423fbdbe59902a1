import { describe, expect, it } from 'vitest';
import { findPod, parsePodReference } from './pod-reference';

const pods = [
  { uid: '11111111-1111-1111-1111-111111111111', namespace: 'shop', name: 'cart-0' },
  { uid: '22222222-2222-2222-2222-222222222222', namespace: 'shop', name: 'web' },
  { uid: '33333333-3333-3333-3333-333333333333', namespace: 'staging', name: 'web' },
];
const find = (text: string, namespace?: string) => findPod(pods, parsePodReference(text, namespace))?.uid.slice(0, 1);

describe('which pod get means', () => {
  it('takes a UID, NAMESPACE/NAME, or a NAME only one namespace has', () => {
    expect(find('22222222-2222-2222-2222-222222222222')).toBe('2');
    expect(find('staging/web')).toBe('3');
    expect(find('cart-0')).toBe('1');
    expect(find('web', 'staging')).toBe('3');
    expect(find('nothing')).toBeUndefined();
    expect(find('shop/nothing')).toBeUndefined();
  });

  it('asks for NAMESPACE/NAME when several namespaces have the name, naming them', () => {
    expect(() => find('web')).toThrow('2 pods are named web, in namespaces shop, staging: give NAMESPACE/NAME, e.g. shop/web');
  });

  it('refuses a NAMESPACE/NAME that -n contradicts, and a malformed one', () => {
    expect(() => parsePodReference('shop/web', 'staging')).toThrow(/in namespace shop, but -n says staging/);
    expect(() => parsePodReference('shop/', undefined)).toThrow(/is not NAMESPACE\/NAME/);
    expect(() => parsePodReference('a/b/c', undefined)).toThrow(/is not NAMESPACE\/NAME/);
  });
});
