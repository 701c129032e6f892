// A build's stamp: when it started and what it was built from, kept beside its output, so that a
// start can tell in a few milliseconds whether the output is still that of its inputs. A file newer
// than the build, a file added or removed, or another version of a tool means building again.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under `folder`, but in folders named in `skip` (node_modules, dist…). */
export function filesUnder(folder, skip = []) {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (!entry.isDirectory()) return [path];
    return skip.includes(entry.name) ? [] : filesUnder(path, skip);
  });
}

/** The inputs as the stamp lists them: paths relative to `root`, sorted, with their modification times. */
export function describeInputs(root, files) {
  return files.map((file) => ({ file: relative(root, file), mtimeMs: statSync(file).mtimeMs })).sort((a, b) => a.file.localeCompare(b.file));
}

/**
 * Why a build is needed, or undefined when the output is that of `inputs`. `versions` (tool → version)
 * must be those the stamp recorded; a stamp written without versions matches none.
 */
export function staleReason(stampFile, inputs, versions) {
  if (!existsSync(stampFile)) return 'no previous build';
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return 'unreadable build stamp';
  }
  if (JSON.stringify(stamp.files) !== JSON.stringify(inputs.map((input) => input.file))) return 'files added or removed';
  if (versions !== undefined) {
    const changed = Object.keys(versions).find((name) => stamp.versions?.[name] !== versions[name]);
    if (changed !== undefined || Object.keys(stamp.versions ?? {}).length !== Object.keys(versions).length) {
      return `${changed ?? 'a dependency'} installed in another version`;
    }
  }
  const changed = inputs.find((input) => input.mtimeMs > stamp.builtAtMs);
  return changed ? `${changed.file} changed` : undefined;
}

/** Written once the build succeeded; `startedAtMs` is taken before it began, so an edit during it counts. */
export function writeStamp(stampFile, startedAtMs, inputs, versions) {
  const stamp = { builtAtMs: startedAtMs, files: inputs.map((input) => input.file), ...(versions === undefined ? {} : { versions }) };
  writeFileSync(stampFile, `${JSON.stringify(stamp)}\n`);
}
