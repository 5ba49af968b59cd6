// Type-checks TypeScript files the way a user's project would (strict, ES modules, `.ts` imports
// allowed, browser globals such as fetch and FormData), for tests of generated code.

import path from "node:path";
import ts from "typescript";

export const USER_COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  types: [],
};

/** `file: message` for every type error of the program rooted at `files`. */
export function typeErrors(files: readonly string[], options = USER_COMPILER_OPTIONS): string[] {
  const program = ts.createProgram([...files], options);
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file ? path.basename(d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    );
}
