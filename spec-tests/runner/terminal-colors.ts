// Colours for the text report, off when stdout is not a terminal or NO_COLOR is set
// (https://no-color.org: any non-empty value disables colour).
export interface Palette {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
}

const plain: Palette = { red: (text) => text, green: (text) => text, yellow: (text) => text, dim: (text) => text };

const ansi: Palette = {
  red: (text) => `\u001b[31m${text}\u001b[39m`,
  green: (text) => `\u001b[32m${text}\u001b[39m`,
  yellow: (text) => `\u001b[33m${text}\u001b[39m`,
  dim: (text) => `\u001b[2m${text}\u001b[22m`,
};

export function choosePalette(isTerminal: boolean, env: NodeJS.ProcessEnv): Palette {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return isTerminal && !noColor ? ansi : plain;
}
