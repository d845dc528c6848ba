/** The workbay command line (docs/cli.md): `main(argv)` runs one command and resolves with its exit code. */
export { main } from "./Main.js"
