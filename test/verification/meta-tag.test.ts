import { describe, expect, it } from 'vitest';
import { headHasVerificationMeta } from '../../src/domain/verification/meta-tag.js';

const TOKEN = 'metaTOKEN_abcdefghijklmnopqrstuv';
const has = (html: string): boolean => headHasVerificationMeta(html, TOKEN);

describe('the meta_tag check reads the page head as HTML', () => {
  it('finds the tag whatever the attribute order, quoting and letter case', () => {
    expect(has(`<html><head><meta content="${TOKEN}" name="service-verify"></head><body></body></html>`)).toBe(true);
    expect(has(`<head><meta name='service-verify' content='${TOKEN}'/></head>`)).toBe(true);
    expect(has(`<HEAD><META NAME="Service-Verify" CONTENT="${TOKEN}"></HEAD>`)).toBe(true);
    expect(has(`<!doctype html><title>Shop</title><meta charset="utf-8"><meta\n  name="service-verify"\n  content="${TOKEN}"\n>`)).toBe(true);
  });

  it('does not count a tag inside a comment, a script, a style or the title', () => {
    expect(has(`<head><!-- <meta name="service-verify" content="${TOKEN}"> --></head>`)).toBe(false);
    expect(has(`<head><script>document.write('<meta name="service-verify" content="${TOKEN}">')</script></head>`)).toBe(false);
    expect(has(`<head><style>/* <meta name="service-verify" content="${TOKEN}"> */</style></head>`)).toBe(false);
    expect(has(`<head><title><meta name="service-verify" content="${TOKEN}"></title></head>`)).toBe(false);
  });

  it('does not count a tag after the head, nor a content that only contains the token', () => {
    expect(has(`<head></head><meta name="service-verify" content="${TOKEN}">`)).toBe(false);
    expect(has(`<head><meta name="a" content="b"><body><meta name="service-verify" content="${TOKEN}"></body></head>`)).toBe(false);
    expect(has(`<head><meta name="service-verify" content=" ${TOKEN}"></head>`)).toBe(false);
    expect(has(`<head><meta name="service-verify" content="${TOKEN.toUpperCase()}"></head>`)).toBe(false);
  });
});
