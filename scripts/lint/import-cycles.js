// An ESLint rule that finds import cycles, type-only imports included: import-x/no-cycle skips
// `import type`, yet a cycle of types still ties two rooms together (neither can be understood, moved
// or tested without the other). The graph is read with TypeScript's own resolution, once per run.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const graphs = new Map();

/** The project's compiler options, for resolving specifiers exactly as `tsc` does. */
function compilerOptionsOf(tsconfig) {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  return parsed?.options ?? {};
}

/** The files each file imports (statically, dynamically or for types only), within the project. */
function importGraph(tsconfig) {
  let graph = graphs.get(tsconfig);
  if (graph) return graph;
  const options = compilerOptionsOf(tsconfig);
  const cache = new Map();
  graph = {
    options,
    importsOf(file) {
      let imports = cache.get(file);
      if (imports) return imports;
      imports = new Map();
      cache.set(file, imports);
      let text;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        return imports;
      }
      for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
        const target = resolve(specifier, file, options);
        if (target && !imports.has(target)) imports.set(target, specifier);
      }
      return imports;
    },
  };
  graphs.set(tsconfig, graph);
  return graph;
}

function resolve(specifier, from, options) {
  if (!specifier.startsWith('.')) return undefined;
  const resolved = ts.resolveModuleName(specifier, from, options, ts.sys).resolvedModule;
  if (!resolved || resolved.isExternalLibraryImport || resolved.resolvedFileName.endsWith('.d.ts')) return undefined;
  return path.resolve(resolved.resolvedFileName);
}

/** The shortest way from `start` back to `file`, as the files passed through, or undefined. */
function wayBack(graph, start, file) {
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const next of graph.importsOf(current).keys()) {
      if (next === file) {
        const way = [];
        for (let step = current; step !== undefined; step = cameFrom.get(step)) way.unshift(step);
        return way;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, current);
        queue.push(next);
      }
    }
  }
  return undefined;
}

const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbids import cycles, type-only imports included' },
    schema: [{ type: 'object', properties: { tsconfig: { type: 'string' } }, additionalProperties: false }],
    messages: { cycle: 'Import cycle: {{way}}' },
  },
  create(context) {
    const file = path.resolve(context.physicalFilename);
    const tsconfig = path.resolve(context.cwd, context.options[0]?.tsconfig ?? 'tsconfig.json');
    const graph = importGraph(tsconfig);
    const check = (node, source) => {
      if (typeof source?.value !== 'string') return;
      const target = resolve(source.value, file, graph.options);
      if (!target) return;
      const way = wayBack(graph, target, file);
      if (!way) return;
      const names = [file, ...way, file].map((step) => path.relative(context.cwd, step));
      context.report({ node, messageId: 'cycle', data: { way: names.join(' → ') } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

export default { rules: { 'no-import-cycle': noImportCycle } };
