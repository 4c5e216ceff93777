// Prints how `eval` and `new Function` fail in this process (no-codegen.test.ts).
const outcome = (run: () => unknown) => {
  try {
    run();
    return 'allowed';
  } catch (error) {
    return (error as Error).constructor.name;
  }
};
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the probe checks that code generation is refused
console.log(outcome(() => eval('1')), outcome(() => new Function('return 1')()));
