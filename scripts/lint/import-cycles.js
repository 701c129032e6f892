// An ESLint rule that finds import cycles, type-only imports included: import-x/no-cycle skips
// `import type`, yet a cycle of types still ties two rooms together (neither can be understood, moved
// or tested without the other). The graph is read with TypeScript's own resolution, once per run.
//
// A type-only import through a door (an index.ts that only re-exports) depends on the modules that
// declare the names it takes, not on every room behind the door: types are erased, nothing else of
// the door is loaded. An import of values loads the whole door, and depends on all of it.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const graphs = new Map();

function compilerOptionsOf(tsconfig) {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  return parsed?.options ?? {};
}

function resolve(specifier, from, options) {
  if (!specifier.startsWith('.')) return undefined;
  const resolved = ts.resolveModuleName(specifier, from, options, ts.sys).resolvedModule;
  if (!resolved || resolved.isExternalLibraryImport || resolved.resolvedFileName.endsWith('.d.ts')) return undefined;
  return path.resolve(resolved.resolvedFileName);
}

function parse(file) {
  try {
    return ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  } catch {
    return undefined;
  }
}

/** The names a type-only import takes, or undefined for an import that loads the module. */
function typeOnlyNames(statement) {
  if (!ts.isImportDeclaration(statement) || !statement.importClause) return undefined;
  const clause = statement.importClause;
  const named = clause.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
  if (clause.isTypeOnly && !clause.name && named) return named.map((element) => (element.propertyName ?? element.name).text);
  if (!clause.isTypeOnly && !clause.name && named && named.length > 0 && named.every((element) => element.isTypeOnly)) {
    return named.map((element) => (element.propertyName ?? element.name).text);
  }
  return undefined;
}

function importGraph(tsconfig) {
  let graph = graphs.get(tsconfig);
  if (graph) return graph;
  const options = compilerOptionsOf(tsconfig);
  const imports = new Map();
  const doors = new Map();

  /** For a file made only of `export … from`, which module each name comes from; undefined otherwise. */
  const doorOf = (file) => {
    if (doors.has(file)) return doors.get(file);
    const source = parse(file);
    let door;
    if (source && source.statements.every((statement) => ts.isExportDeclaration(statement) && statement.moduleSpecifier && statement.exportClause && ts.isNamedExports(statement.exportClause))) {
      door = new Map();
      for (const statement of source.statements) {
        const target = resolve(statement.moduleSpecifier.text, file, options);
        if (!target) continue;
        for (const element of statement.exportClause.elements) door.set(element.name.text, { target, name: (element.propertyName ?? element.name).text });
      }
    }
    doors.set(file, door);
    return door;
  };

  /** The files an import of `specifier` from `file` depends on: the door's rooms that declare the names of a type-only import. */
  const targetsOf = (specifier, file, typeNames) => {
    const target = resolve(specifier, file, options);
    if (!target) return [];
    const door = typeNames && doorOf(target);
    if (!door) return [target];
    const rooms = new Set();
    for (const name of typeNames) {
      let step = door.get(name);
      // A door may open on another door.
      while (step && doorOf(step.target)?.get(step.name)) step = doorOf(step.target).get(step.name);
      rooms.add(step ? step.target : target);
    }
    return [...rooms];
  };

  graph = {
    targetsOf,
    importsOf(file) {
      let targets = imports.get(file);
      if (targets) return targets;
      targets = new Set();
      imports.set(file, targets);
      const source = parse(file);
      if (!source) return targets;
      const typeOnly = new Map();
      for (const statement of source.statements) {
        const names = typeOnlyNames(statement);
        if (names) typeOnly.set(statement.moduleSpecifier.text, [...(typeOnly.get(statement.moduleSpecifier.text) ?? []), ...names]);
      }
      for (const { fileName: specifier } of ts.preProcessFile(source.text, true, true).importedFiles) {
        for (const target of targetsOf(specifier, file, typeOnly.get(specifier))) targets.add(target);
      }
      return targets;
    },
  };
  graphs.set(tsconfig, graph);
  return graph;
}

/** The shortest way from `start` back to `file`, as the files passed through, or undefined. */
function wayBack(graph, start, file) {
  if (start === file) return [];
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const next of graph.importsOf(current)) {
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

/** The names an ESTree import declaration takes for types only, or undefined when it loads the module. */
function typeOnlyNamesOf(node) {
  if (node.type !== 'ImportDeclaration' || node.specifiers.length === 0) return undefined;
  if (!node.specifiers.every((specifier) => specifier.type === 'ImportSpecifier' && (node.importKind === 'type' || specifier.importKind === 'type'))) return undefined;
  return node.specifiers.map((specifier) => (specifier.imported.type === 'Identifier' ? specifier.imported.name : specifier.imported.value));
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
    const graph = importGraph(path.resolve(context.cwd, context.options[0]?.tsconfig ?? 'tsconfig.json'));
    const check = (node) => {
      if (typeof node.source?.value !== 'string') return;
      for (const target of graph.targetsOf(node.source.value, file, typeOnlyNamesOf(node))) {
        const way = wayBack(graph, target, file);
        if (!way) continue;
        const names = [file, ...way, file].map((step) => path.relative(context.cwd, step));
        context.report({ node, messageId: 'cycle', data: { way: names.join(' → ') } });
        return;
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default { rules: { 'no-import-cycle': noImportCycle } };
