// The documentation sets the relevance evaluation searches: real manuals shipped as Debian
// packages, each with the questions of its `<name>.questions.json`. A set's pages are the HTML
// files under its folder that `includes` accepts, named by their path relative to that folder.
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { unpackDebianPackage } from '../lib/debian-package.js';

export interface DocumentationSet {
  name: string;
  description: string;
  /** The Debian package that ships the pages. */
  debianPackage: string;
  /** The folder of the pages inside the package. */
  folder: string;
  /** Whether a page (path relative to `folder`) belongs to the set. */
  includes(page: string): boolean;
}

export const DOCUMENTATION_SETS: DocumentationSet[] = [
  {
    name: 'git',
    description: "git's manual pages, guides and how-tos (git-doc)",
    debianPackage: 'git-doc',
    folder: 'usr/share/doc/git-doc',
    includes: (page) => page.endsWith('.html'),
  },
  {
    name: 'python',
    description: "Python 3.11's library reference, tutorial, HOWTOs and FAQ (python3.11-doc)",
    debianPackage: 'python3.11-doc',
    folder: 'usr/share/doc/python3.11/html',
    includes: (page) => /^(library|tutorial|howto|faq)\/[^/]+\.html$/.test(page),
  },
];

export interface Page {
  /** Path relative to the set's folder, e.g. `library/csv.html`. */
  path: string;
  bytes: Buffer;
}

export interface LoadedSet {
  set: DocumentationSet;
  packageVersion: string;
  pages: Page[];
}

/** Regular files only: a symbolic link (git-doc's index.html → git.html) would upload a page twice. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return filesUnder(path);
      return entry.isFile() && (await lstat(path)).isFile() ? [path] : [];
    }),
  );
  return nested.flat();
}

export async function loadSet(set: DocumentationSet, log: (message: string) => void): Promise<LoadedSet> {
  const unpacked = await unpackDebianPackage(set.debianPackage, undefined, log);
  const folder = join(unpacked.root, set.folder);
  const paths = (await filesUnder(folder)).map((file) => relative(folder, file)).filter((page) => set.includes(page));
  paths.sort();
  if (paths.length === 0) throw new Error(`${set.debianPackage} ${unpacked.version} has no pages of the set ${set.name} under ${set.folder}`);
  const pages = await Promise.all(paths.map(async (path) => ({ path, bytes: await readFile(join(folder, path)) })));
  return { set, packageVersion: unpacked.version, pages };
}

export function findSets(names: string[]): DocumentationSet[] {
  const unknown = names.filter((name) => !DOCUMENTATION_SETS.some((set) => set.name === name));
  if (unknown.length > 0) throw new Error(`Unknown set(s) ${unknown.join(', ')}; sets: ${DOCUMENTATION_SETS.map((set) => set.name).join(', ')}`);
  return names.length === 0 ? DOCUMENTATION_SETS : DOCUMENTATION_SETS.filter((set) => names.includes(set.name));
}
