import { describe, expect, it } from 'vitest';
import { deviceName, maskAddress } from './device.ts';

describe('device names and masked addresses', () => {
  it('names the common browsers and systems', () => {
    const cases: Array<[string, string]> = [
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        'Chrome on Windows',
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
        'Edge on Windows',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
        'Safari on iPhone',
      ],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0',
        'Firefox on macOS',
      ],
      [
        'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
        'Samsung Internet on Android',
      ],
      [
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
        'Chrome on Linux',
      ],
      ['curl/8.5.0', 'Unknown device'],
    ];
    for (const [ua, name] of cases) expect(deviceName(ua), ua).toBe(name);
    expect(deviceName(undefined)).toBe('Unknown device');
  });

  it('hides the host part of an address', () => {
    expect(maskAddress('203.0.113.57')).toBe('203.0.113.x');
    expect(maskAddress('::ffff:198.51.100.4')).toBe('198.51.100.x');
    expect(maskAddress('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3::x');
    expect(maskAddress('2001:db8::1')).toBe('2001:db8:0::x');
    expect(maskAddress('nonsense')).toBe('unknown');
  });
});
