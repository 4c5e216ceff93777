// Prints how `eval` and `new Function` fail in this process (no-codegen.test.ts).
const outcome = (run: () => unknown) => {
  try {
    run();
    return 'allowed';
  } catch (error) {
    return (error as Error).constructor.name;
  }
};
const byEval = outcome(() => eval('1'));
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the probe checks that code generation is refused
const byFunction = outcome(() => new Function('return 1')());
console.log(byEval, byFunction);
