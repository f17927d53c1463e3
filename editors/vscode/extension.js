// CompoWorld .world support for VS Code: the TextMate grammar does the highlighting (see
// package.json); this file starts the language server, `worldc lsp`, over stdio.
'use strict';

const vscode = require('vscode');

let client;
let output;

function serverOptions() {
  const command = vscode.workspace.getConfiguration('compoworld').get('worldcPath') || 'worldc';
  const run = { command, args: ['lsp'], options: { env: process.env } };
  return { run, debug: run };
}

async function start(context) {
  let lc;
  try {
    lc = require('vscode-languageclient/node');
  } catch (err) {
    vscode.window.showWarningMessage(
      'CompoWorld: vscode-languageclient is missing (run `npm install` in the extension folder); ' +
        'highlighting works, the language server does not.'
    );
    return;
  }
  output = output || vscode.window.createOutputChannel('CompoWorld');
  const clientOptions = {
    documentSelector: [{ language: 'world' }],
    outputChannel: output,
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.world') },
  };
  client = new lc.LanguageClient('compoworld', 'CompoWorld (worldc lsp)', serverOptions(), clientOptions);
  try {
    await client.start();
  } catch (err) {
    const path = vscode.workspace.getConfiguration('compoworld').get('worldcPath');
    vscode.window.showErrorMessage(
      `CompoWorld: could not start \`${path} lsp\` (${err && err.message ? err.message : err}). ` +
        'Set compoworld.worldcPath to the worldc in your environment, e.g. .venv/bin/worldc.'
    );
    client = undefined;
  }
}

async function stop() {
  if (client) {
    const c = client;
    client = undefined;
    await c.stop();
  }
}

async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('compoworld.restartServer', async () => {
      await stop();
      await start(context);
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('compoworld.worldcPath')) {
        await stop();
        await start(context);
      }
    })
  );
  await start(context);
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
