import { describe, expect, it } from 'vitest';
import { toVerificationStatus, WP_PLUGIN_NOTE } from '../src/domain/verification/verification-status.js';

const token = 'abcdefghijklmnopqrstuvwxyzABCD-_';
const site = {
  hostname: 'shop.example',
  verified: false,
  method: null,
  verifiedAt: null,
  lastCheckedAt: null,
  verificationToken: token,
};

describe('toVerificationStatus', () => {
  it('gives an unverified site every documented field and the instructions of contract §4', () => {
    expect(toVerificationStatus({ ...site, lastCheckedAt: new Date('2026-03-01T08:00:00.000Z') })).toStrictEqual({
      domain: 'shop.example',
      verified: false,
      method: null,
      verifiedAt: null,
      lastCheckedAt: '2026-03-01T08:00:00.000Z',
      methods: ['dns_txt', 'meta_tag', 'wp_plugin'],
      instructions: {
        token,
        dns_txt: { type: 'TXT', host: 'shop.example', value: `service-verify=${token}` },
        meta_tag: { url: 'https://shop.example/', html: `<meta name="service-verify" content="${token}">` },
        wp_plugin: {
          paths: ['https://shop.example/?rest_route=/service/v1/verify', 'https://shop.example/wp-admin/admin-ajax.php?action=service_verify'],
          pluginSlug: 'service',
          note: WP_PLUGIN_NOTE,
        },
      },
    });
  });

  it('omits the instructions, and with them the token, once the site is verified', () => {
    const status = toVerificationStatus({
      ...site,
      verified: true,
      method: 'wp_plugin',
      verifiedAt: new Date('2026-03-02T09:00:00.000Z'),
      lastCheckedAt: new Date('2026-03-02T09:00:00.000Z'),
    });
    expect(status).toStrictEqual({
      domain: 'shop.example',
      verified: true,
      method: 'wp_plugin',
      verifiedAt: '2026-03-02T09:00:00.000Z',
      lastCheckedAt: '2026-03-02T09:00:00.000Z',
      methods: ['dns_txt', 'meta_tag', 'wp_plugin'],
    });
    expect(JSON.stringify(status)).not.toContain(token);
  });

  it('keeps the method of a lapsed site and shows the instructions again', () => {
    const status = toVerificationStatus({ ...site, method: 'dns_txt' });
    expect([status.method, status.verifiedAt, status.instructions?.token]).toStrictEqual(['dns_txt', null, token]);
  });

  it('hands out a fresh methods array each time', () => {
    toVerificationStatus(site).methods.push('dns_txt');
    expect(toVerificationStatus(site).methods).toStrictEqual(['dns_txt', 'meta_tag', 'wp_plugin']);
  });
});
