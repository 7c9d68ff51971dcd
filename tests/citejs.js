// citation.js as a reference manager reads a file: node citejs.js FILE FORMAT, where
// FORMAT is bibtex, ris or csl; prints the items it read as CSL-JSON.
// Used by tests/test_csl_exports.py.
const fs = require("fs");
const { Cite, plugins } = require("@citation-js/core");
require("@citation-js/plugin-bibtex");
require("@citation-js/plugin-ris");
require("@citation-js/plugin-csl");

const [file, format] = process.argv.slice(2);
const types = { bibtex: "@bibtex/text", ris: "@ris/file", csl: "@csl/list+object" };
let input = fs.readFileSync(file, "utf8");
if (format === "csl") input = JSON.parse(input);
const cite = new Cite(input, { forceType: types[format] });
process.stdout.write(JSON.stringify(cite.data));
