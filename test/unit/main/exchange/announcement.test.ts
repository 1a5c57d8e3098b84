import { describe, expect, it } from 'vitest';
import { Announcement } from '../../../../src-main/exchange';

const token = '0123456789abcdef'.repeat(4);

describe("the sandbox's first line", () => {
  it.each([
    [{ url: 'http://127.0.0.1:5123' }],
    [{ url: 'http://127.0.0.1:5123', adminToken: token }],
    [
      {
        url: 'http://127.0.0.1:5123',
        adminToken: token,
        notice: 'Practice funds only.\nReset daily.',
      },
    ],
  ])('accepts %j', (line) => {
    expect(Announcement.parse(line)).toEqual(line);
  });

  it.each([
    ['a host other than loopback', { url: 'http://203.0.113.9:5123' }],
    ['a name that may resolve anywhere', { url: 'http://localhost.example:5123' }],
    ['another scheme', { url: 'https://127.0.0.1:5123' }],
    ['credentials in the URL', { url: 'http://user:pw@127.0.0.1:5123' }],
    ['no URL', { adminToken: token }],
    ['a short token', { url: 'http://127.0.0.1:1', adminToken: token.slice(1) }],
    ['a token that is not hex', { url: 'http://127.0.0.1:1', adminToken: 'z'.repeat(64) }],
    ['a notice with control characters', { url: 'http://127.0.0.1:1', notice: 'ok\u001b[2J' }],
    ['a very long notice', { url: 'http://127.0.0.1:1', notice: 'x'.repeat(2001) }],
  ])('refuses %s', (_what, line) => {
    expect(Announcement.safeParse(line).success).toBe(false);
  });
});
