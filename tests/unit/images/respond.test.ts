import { describe, expect, it } from 'vitest';
import { imageOk } from '../../../src/lib/images/respond.ts';

describe('a derived image as the route answers it', () => {
  it('is sent from the stored bytes themselves: no copy of them is made per request', async () => {
    const stored = Buffer.from('stored picture');
    const response = imageOk(stored, 'webp', 'public, max-age=60');
    // The answer reads the bytes it was given, not a copy taken when it was made.
    stored.write('S');
    expect(await response.text()).toBe('Stored picture');
    expect(response.headers.get('content-length')).toBe(String(stored.byteLength));
    expect(response.headers.get('content-type')).toBe('image/webp');
  });
});
