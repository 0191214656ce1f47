import { describe, expect, it } from 'vitest';
import { parseSecretsText, SecretsFileError } from '../../../src/lib/secrets/schema.ts';

const FILE = '/run/secrets/masthead';
const VALUE = 'S3CRET-value-7f3a';
/** Purge secrets are at least 32 characters. */
const PURGE = 'p1-purge-secret-of-32-characters';

const parsed = (text: string) => Object.fromEntries(parseSecretsText(text, FILE));

/** The message of the file's refusal (the test fails when it is accepted). */
function refusal(text: string): string {
  try {
    parseSecretsText(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(SecretsFileError);
    return (error as Error).message;
  }
  throw new Error('the file was accepted');
}

describe('the secrets file, in its two spellings', () => {
  it('reads JSON keyed by tenant id', () => {
    expect(
      parsed(
        JSON.stringify({
          'harbour-times': { publishingReadToken: 'r1', lodgingToken: 'l1', purgeSecret: PURGE },
          'alpine-post': { lodgingEmail: 'm@x.test', lodgingPassword: 'pw' },
        }),
      ),
    ).toEqual({
      'harbour-times': { publishingReadToken: 'r1', lodgingToken: 'l1', purgeSecret: PURGE },
      'alpine-post': { lodgingEmail: 'm@x.test', lodgingPassword: 'pw' },
    });
  });

  it('reads the same from .env lines: <tenant-id>__<NAME>=value, quotes and comments as in Node', () => {
    const text = [
      '# Harbour Times',
      'harbour-times__PUBLISHING_READ_TOKEN=r1',
      'harbour-times__LODGING_TOKEN="l 1"',
      `export harbour-times__PURGE_SECRET=${PURGE} # rotated in May`,
      '',
      "alpine-post__LODGING_EMAIL='m@x.test'",
      'alpine-post__LODGING_PASSWORD=pw',
    ].join('\n');
    expect(parsed(text)).toEqual({
      'harbour-times': { publishingReadToken: 'r1', lodgingToken: 'l 1', purgeSecret: PURGE },
      'alpine-post': { lodgingEmail: 'm@x.test', lodgingPassword: 'pw' },
    });
  });

  it('counts an empty value as unset, like an empty variable; a BOM is no problem', () => {
    expect(parsed(`\uFEFF{"gazette": {"lodgingToken": "", "purgeSecret": " ${PURGE} "}}`)).toEqual({
      gazette: { lodgingToken: undefined, purgeSecret: PURGE },
    });
    expect(parsed('gazette__LODGING_TOKEN=\n')).toEqual({ gazette: { lodgingToken: undefined } });
  });
});

describe('a secrets file that cannot be used', () => {
  it.each([
    [
      'an unknown key',
      `{"harbour-times": {"lodgingTokn": "${VALUE}"}}`,
      'harbour-times: Unrecognized key: "lodgingTokn"',
    ],
    [
      'a value that is not text',
      '{"harbour-times": {"lodgingToken": 12345}}',
      'harbour-times.lodgingToken: Invalid input: expected string, received number',
    ],
    [
      'a purge secret shorter than 32 characters',
      `{"harbour-times": {"purgeSecret": "${VALUE}"}}`,
      'harbour-times.purgeSecret: must be at least 32 characters',
    ],
    [
      'a short purge secret in .env lines',
      `harbour-times__PURGE_SECRET=${VALUE}`,
      'harbour-times.purgeSecret: must be at least 32 characters',
    ],
    [
      'a key that is no tenant id',
      `{"Harbour Times": {"lodgingToken": "${VALUE}"}}`,
      'Harbour Times: is not a tenant id such as "daily-planet"',
    ],
    ['broken JSON', `{"harbour-times": {"lodgingToken": ${VALUE}}}`, 'it is not valid JSON'],
    [
      '.env names of another shape',
      `HARBOUR_LODGING_TOKEN=${VALUE}\nharbour-times__TOKEN=${VALUE}`,
      'HARBOUR_LODGING_TOKEN, harbour-times__TOKEN: expected <tenant-id>__<PUBLISHING_READ_TOKEN|',
    ],
  ])('is refused for %s, naming where and never the value', (_case, text, reason) => {
    const message = refusal(text);
    expect(message).toContain(`The secrets file ${FILE} cannot be used: `);
    expect(message).toContain(reason);
    expect(message).not.toContain('S3CRET');
  });
});
