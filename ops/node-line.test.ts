// The Node line (issue 25): package.json's engines names two LTS lines (the current one and the
// previous), `.nvmrc` names the newer, which `.ci/run` fetches and runs the tests on, and the image
// is built on it; the tests run on a Node engines accepts (docs/decisions.md 99).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
const enginesOf = (file: string): string => JSON.parse(read(file)).engines.node;

interface Line {
  major: number;
  minor: number;
  patch: number;
}

/** `^24.0.0 || ^22.14.0` -> one floor per line; any other shape fails (this test reads only that one). */
function linesOf(engines: string): Line[] {
  return engines.split('||').map((alternative) => {
    const match = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(alternative.trim());
    assert.ok(match, `engines "${engines}": each alternative is ^major.minor.patch, one per line`);
    return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
  });
}

const accepts = (line: Line, version: string) => {
  const [major, minor, patch] = version.split('.').map(Number);
  if (major !== line.major) return false;
  return minor !== line.minor ? minor > line.minor : patch >= line.patch;
};

const engines = enginesOf('package.json');
const lines = linesOf(engines);
const nvmrc = read('.nvmrc').trim();

describe('the Node line', () => {
  it('engines names two LTS lines, the newer first and the previous one after it', () => {
    assert.equal(lines.length, 2, `engines "${engines}" names ${lines.length} lines`);
    const [newer, previous] = lines;
    assert.equal(newer.major % 2, 0, `engines "${engines}": ${newer.major} is not an LTS line (odd)`);
    assert.equal(previous.major, newer.major - 2, `engines "${engines}": the second line is not the previous LTS`);
  });

  it('.nvmrc names the newer line, which .ci/run runs the tests on', () => {
    assert.equal(nvmrc, String(lines[0].major), `.nvmrc says "${nvmrc}", engines "${engines}"`);
    assert.match(read('.ci/run'), /line="\$\(.*< \.nvmrc\)"/, '.ci/run no longer takes its line from .nvmrc');
  });

  it('the image is built and runs on that line', () => {
    const bases = [...read('Dockerfile').matchAll(/^FROM node:(\S+)/gm)].map((match) => match[1]);
    assert.ok(bases.length > 0, 'the Dockerfile has no FROM node: line');
    for (const base of bases) assert.ok(base.startsWith(`${nvmrc}-`), `Dockerfile FROM node:${base}, .nvmrc says ${nvmrc}`);
  });

  it('the workspace packages accept every release the root accepts', () => {
    const oldest = lines.at(-1)!;
    const floor = `>=${oldest.major}.${oldest.minor}.${oldest.patch}`;
    for (const file of ['packages/client/package.json', 'packages/sim/package.json']) {
      assert.equal(enginesOf(file), floor, `${file}: engines is not ${floor}, the root's oldest floor`);
    }
  });

  it('these tests run on a Node that engines accepts', () => {
    const version = process.versions.node;
    assert.ok(
      lines.some((line) => accepts(line, version)),
      `this is Node ${version}; engines is "${engines}": run .ci/run, or use the line in .nvmrc (nvm use)`,
    );
  });
});
