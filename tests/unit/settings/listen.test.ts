import { describe, expect, it } from 'vitest';
import { isLoopback, listenChoice, PROXY_ONLY_HOST } from '../../../src/lib/settings/listen.ts';

type Current = { TRUST_PROXY: boolean; HOST?: string };

describe('listenChoice: behind a trusted proxy, Node is reachable only from it, or says so', () => {
  it.each<[string, Current, string | undefined, boolean]>([
    ['no proxy, no HOST: the adapter default', { TRUST_PROXY: false }, undefined, false],
    ['no proxy, a HOST: that one', { TRUST_PROXY: false, HOST: '0.0.0.0' }, '0.0.0.0', false],
    ['proxy, no HOST: loopback only', { TRUST_PROXY: true }, PROXY_ONLY_HOST, false],
    ['proxy, HOST on loopback', { TRUST_PROXY: true, HOST: '127.0.0.1' }, '127.0.0.1', false],
    ['proxy, HOST=localhost', { TRUST_PROXY: true, HOST: 'localhost' }, 'localhost', false],
    ['proxy, every address: a warning', { TRUST_PROXY: true, HOST: '0.0.0.0' }, '0.0.0.0', true],
    [
      'proxy, a private address: a warning',
      { TRUST_PROXY: true, HOST: '10.0.0.5' },
      '10.0.0.5',
      true,
    ],
    ['proxy, every IPv6 address: a warning', { TRUST_PROXY: true, HOST: '::' }, '::', true],
  ])('%s', (_case, current, host, warns) => {
    const choice = listenChoice(current);
    expect(choice.host).toBe(host);
    if (!warns) {
      expect(choice.warning).toBeUndefined();
      return;
    }
    expect(choice.warning).toContain(`HOST=${current.HOST}`);
    expect(choice.warning).toMatch(/forge X-Forwarded-For/);
    expect(choice.warning).toContain('docs/deploy.md');
  });

  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['[::1]', true],
    ['::ffff:127.0.0.2', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
    ['masthead.internal', false],
  ])('%s is loopback: %s', (host, expected) => {
    expect(isLoopback(host)).toBe(expected);
  });
});
