import { describe, expect, it } from 'vitest';
import { parseFieldMask } from '../mask/field-mask';
import type { PodTree } from '../pod/pod-tree';
import { noPodsMessage, parseSelection, selectPods, selector } from './pod-selection';

const pod = (namespace: string, name: string, labels: Record<string, string> = {}, restarts = 0): PodTree => ({
  metadata: { namespace, name, labels, creationTimestamp: `2026-01-0${(restarts % 9) + 1}T00:00:00Z` },
  status: { phase: name.startsWith('job') ? 'Succeeded' : 'Running', containerStatuses: [{ name: 'c', restartCount: restarts }] },
});
const pods = [pod('shop', 'web-10', { app: 'web' }, 1), pod('kube-system', 'dns', { app: 'dns' }, 7), pod('shop', 'web-9', { app: 'web' }, 3), pod('shop', 'job-1', {}, 2)];
const names = (ps: PodTree[]) => ps.map((p) => `${(p.metadata as { namespace: string }).namespace}/${(p.metadata as { name: string }).name}`);
const select = (values: Record<string, unknown>) => names(selectPods(pods, parseSelection(values)));

describe('which pods pods and export show', () => {
  it('all namespaces by default, by NAMESPACE/NAME byte by byte, as the API server lists them', () => {
    expect(select({})).toEqual(['kube-system/dns', 'shop/job-1', 'shop/web-10', 'shop/web-9']);
    expect(select({ 'all-namespaces': true })).toEqual(select({}));
    // By storage key: shop-eu/a before shop/job-1, as '-' is below '/'.
    expect(names(selectPods([pods[3]!, pod('shop-eu', 'a')], parseSelection({})))).toEqual(['shop-eu/a', 'shop/job-1']);
  });

  it('-n keeps one namespace; -l and --field-selector must all hold', () => {
    expect(select({ namespace: 'kube-system' })).toEqual(['kube-system/dns']);
    expect(select({ namespace: 'shop', selector: 'app=web' })).toEqual(['shop/web-10', 'shop/web-9']);
    expect(select({ selector: '!app' })).toEqual(['shop/job-1']);
    expect(select({ 'field-selector': 'status.phase!=Running' })).toEqual(['shop/job-1']);
    expect(select({ selector: 'app in (web,dns)', 'field-selector': 'metadata.namespace=shop' })).toEqual(['shop/web-10', 'shop/web-9']);
  });

  it('--sort-by orders by the field, numbers by value and names in natural order', () => {
    expect(select({ 'sort-by': '{.status.containerStatuses[0].restartCount}' })).toEqual(['shop/web-10', 'shop/job-1', 'shop/web-9', 'kube-system/dns']);
    expect(select({ 'sort-by': '.metadata.name', namespace: 'shop' })).toEqual(['shop/job-1', 'shop/web-9', 'shop/web-10']);
    // Pods without the field come first, in namespace/name order.
    expect(select({ 'sort-by': '.metadata.labels.app' })).toEqual(['shop/job-1', 'kube-system/dns', 'shop/web-10', 'shop/web-9']);
  });

  it("keeps the node's own order in list formats unless --sort-by is given", () => {
    expect(names(selector(parseSelection({ namespace: 'shop' }))!(pods))).toEqual(['shop/web-10', 'shop/web-9', 'shop/job-1']);
    expect(names(selector(parseSelection({ namespace: 'shop', 'sort-by': '.metadata.name' }))!(pods))).toEqual(['shop/job-1', 'shop/web-9', 'shop/web-10']);
  });

  it('streams the list untouched when nothing is selected or sorted', () => {
    expect(selector(parseSelection({}))).toBeUndefined();
    expect(selector(parseSelection({ 'all-namespaces': true }))).toBeUndefined();
    expect(selector(parseSelection({ 'sort-by': '.metadata.name' }))).toBeDefined();
  });

  it('refuses -n with -A, and an empty -n', () => {
    expect(() => parseSelection({ namespace: 'a', 'all-namespaces': true })).toThrow('give -n NAMESPACE or -A, not both');
    expect(() => parseSelection({ namespace: '' })).toThrow(/-n needs a namespace name/);
  });

  it('refuses to select on a field the --mask leaves out, naming the field to add', () => {
    const mask = parseFieldMask('metadata.name,status.phase');
    expect(() => parseSelection({ selector: 'app=web' }, mask)).toThrow('-l reads metadata.labels, which --mask leaves out: add metadata.labels to the mask');
    expect(() => parseSelection({ namespace: 'shop' }, mask)).toThrow(/add metadata.namespace/);
    expect(() => parseSelection({ 'field-selector': 'spec.nodeName=w1' }, mask)).toThrow(/--field-selector spec.nodeName reads spec.nodeName/);
    expect(() => parseSelection({ 'sort-by': '.status.podIP' }, mask)).toThrow(/--sort-by reads status.podIP/);
    expect(() => parseSelection({ 'field-selector': 'status.phase=Running', 'sort-by': '.metadata.name' }, mask)).not.toThrow();
  });

  it('--filter takes the app\'s filter language: kubectl STATUS, is:, negation and text, every term holding', () => {
    expect(select({ filter: 'is:restarted -ns:kube-system' })).toEqual(['shop/job-1', 'shop/web-10', 'shop/web-9']);
    expect(select({ filter: 'phase:Succeeded' })).toEqual(['shop/job-1']);
    expect(select({ filter: 'web label:app=web' })).toEqual(['shop/web-10', 'shop/web-9']);
    expect(selector(parseSelection({ filter: 'ns:kube-system' }))!(pods).length).toBe(1);
  });

  it('refuses a --filter it cannot read, probe: terms (no metrics here), and terms the --mask makes blind', () => {
    expect(() => parseSelection({ filter: 'color:red' })).toThrow(/bad --filter: Unknown filter "color:"/);
    expect(() => parseSelection({ filter: 'probe:failed' })).toThrow(/probe: terms need the kubelet REST API/);
    expect(() => parseSelection({ filter: 'owner:DaemonSet' }, parseFieldMask('metadata.name'))).toThrow(/--filter owner:daemonset reads metadata.ownerReferences, which --mask leaves out/i);
  });

  it("says kubectl's No resources found", () => {
    expect(noPodsMessage(parseSelection({ namespace: 'shop' }))).toBe('No resources found in shop namespace.');
    expect(noPodsMessage(parseSelection({}))).toBe('No resources found');
  });
});
