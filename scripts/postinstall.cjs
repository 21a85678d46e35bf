// After `npm install`/`npm ci`: npm checks each package's "engines" against the Node that runs npm. On Node 20 five
// dependencies warn (EBADENGINE) that they want Node >= 22; none of them runs on that Node, so say so once instead
// of leaving a newcomer to wonder. Plain CommonJS: it must run on any Node npm may be using.
const agent = process.env.npm_config_user_agent || '';
const match = /\bnode\/v(\d+)\./.exec(agent);
if (match && Number(match[1]) < 22) {
  console.log(
    `qrels-studio: the EBADENGINE warnings above are harmless — those packages want Node >= 22 and this npm runs on ` +
      `Node ${match[1]}, but every project script and the CLI run on the project's own Node 24 (the \`node\` ` +
      'devDependency), and the extension runs bundled inside VS Code.',
  );
}
