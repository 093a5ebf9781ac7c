// Runs tasks a few at a time (each fixture mostly waits on its server) and hands results
// back in the original order, so the report reads the same however the timing falls.
export async function runInOrder<Input, Output>(
  inputs: Input[],
  concurrency: number,
  work: (input: Input) => Promise<Output>,
  onResult: (output: Output) => void,
): Promise<Output[]> {
  const settle: ((output: Output) => void)[] = [];
  const results = inputs.map(() => new Promise<Output>((resolve) => settle.push(resolve)));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < inputs.length) {
      const index = next;
      next += 1;
      settle[index]?.(await work(inputs[index] as Input));
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(concurrency, inputs.length)) }, worker);
  const outputs: Output[] = [];
  for (const result of results) {
    const output = await result;
    onResult(output);
    outputs.push(output);
  }
  await Promise.all(workers);
  return outputs;
}
