import { Parser } from 'htmlparser2';

/**
 * `<meta name="service-verify" content="<token>">` in the page head (contract §4 meta_tag). Only the head counts
 * (the tag is placed there, and a body can carry user content); the content must equal the token exactly. An HTML
 * parser reads the page as a browser would: attributes in any order and quoting, any letter case, and nothing
 * inside a comment, a script or a style counts.
 */
export function headHasVerificationMeta(html: string, token: string): boolean {
  let found = false;
  let headEnded = false;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name === 'body') headEnded = true;
      if (headEnded || found || name !== 'meta') return;
      found = attributes.name?.toLowerCase() === 'service-verify' && attributes.content === token;
    },
    onclosetag(name) {
      if (name === 'head') headEnded = true;
    },
  });
  parser.end(html);
  return found;
}
