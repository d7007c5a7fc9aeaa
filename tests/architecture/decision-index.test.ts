import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const DECISIONS = path.resolve(import.meta.dirname, '../../docs/decisions');

/** The records the index links to, by file name. */
function linkedRecords(index: string): Set<string> {
  return new Set([...index.matchAll(/\]\((\d{3}-[a-z0-9-]+\.md)\)/g)].map((match) => match[1] ?? ''));
}

describe('the decision records index (docs/decisions/README.md)', () => {
  const index = readFileSync(path.join(DECISIONS, 'README.md'), 'utf8');
  const records = readdirSync(DECISIONS).filter((name) => /^\d{3}-.*\.md$/.test(name));

  it('links every record, so a new one cannot be missed by a reader starting there', () => {
    const linked = linkedRecords(index);
    expect(records.filter((name) => !linked.has(name))).toEqual([]);
  });

  it('links no record that does not exist', () => {
    expect([...linkedRecords(index)].filter((name) => !records.includes(name))).toEqual([]);
  });

  it('finds a record left out of a small index', () => {
    expect(linkedRecords('[001](001-stack-and-layout.md)').has('002-console-structure.md')).toBe(false);
  });
});
