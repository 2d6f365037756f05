import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The domain takes no presenter callback (issue 32): an outcome is presented once, by its caller (a resolver, the
 * execution layer), which hands the domain the result (an event's data) — never a function that renders a v1 shape.
 * The import rule (`no-transport-in-domain`, imports.test.ts) keeps src/domain from importing src/execution's
 * `Present`; this scan catches what no import shows: a parameter, member or type alias in src/domain that is a
 * presenter by its name (`present…`, `…presenter…`), by its type (`Present<…>`), or by its shape (a function
 * returning `Record<string, unknown>`, or a promise of one: a v1 body).
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();
const RENDERED = new Set(['Record<string, unknown>', 'Promise<Record<string, unknown>>']);

/** Why `type` makes a presenter, or null. */
function presenterType(type: ts.TypeNode | undefined, file: ts.SourceFile): string | null {
  if (!type) return null;
  if (ts.isTypeReferenceNode(type) && /(^|\.)Present$/.test(type.typeName.getText(file))) return 'typed Present';
  if (ts.isFunctionTypeNode(type) && RENDERED.has(squeeze(type.type.getText(file)))) return `a function returning ${squeeze(type.type.getText(file))}`;
  return null;
}

/** `file:line name: why` for each presenter found in the .ts files under `dir`. */
function presenters(dir: string, base: string): string[] {
  const found: string[] = [];
  for (const path of filesUnder(dir)) {
    const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isParameter(node) || ts.isPropertySignature(node) || ts.isPropertyDeclaration(node) || ts.isTypeAliasDeclaration(node)) {
        const name = node.name.getText(file);
        const why = /^present|presenter/i.test(name) ? 'named a presenter' : presenterType(node.type, file);
        if (why) found.push(`${relative(base, path)}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1} ${name}: ${why}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

describe('no presenter callback in src/domain', () => {
  it('src/domain takes none', () => {
    expect(presenters(join(root, 'src/domain'), root)).toStrictEqual([]);
  });

  it('finds one by its type, its inline shape, a request member, a domain-declared type', () => {
    const fixture = fileURLToPath(new URL('./fixture', import.meta.url));
    expect(presenters(join(fixture, 'src/domain'), fixture)).toStrictEqual([
      'src/domain/takes-presenter.ts:9 present: named a presenter',
      'src/domain/takes-presenter.ts:14 render: a function returning Promise<Record<string, unknown>>',
      'src/domain/takes-presenter.ts:20 shape: a function returning Record<string, unknown>',
      'src/domain/takes-presenter.ts:24 Render: a function returning Promise<Record<string, unknown>>',
    ]);
  });
});
