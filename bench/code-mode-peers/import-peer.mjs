// Imports a package as this folder resolves it: the code-mode peers live in this folder's own
// node_modules (their versions clash with the bench's: `ai` 7.0.85 for @ai-sdk/code-mode), and a
// bare `import()` resolves from the file that makes it.
export default (specifier) => import(specifier);
