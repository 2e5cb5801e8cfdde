// The part of jstat (https://github.com/jstat/jstat, no bundled types) that compare and run/precision use.
declare module 'jstat' {
  const jStat: {
    /** Complementary error function. */
    erfc(x: number): number;
    studentt: {
      /** Student's t distribution CDF with `dof` degrees of freedom. */
      cdf(x: number, dof: number): number;
      /** Its quantile function (used by src/run/precision.ts). */
      inv(p: number, dof: number): number;
    };
    chisquare: {
      /** The chi-square quantile function (the run pool's median correction, src/run/precision.ts). */
      inv(p: number, dof: number): number;
    };
  };
  export default jStat;
}
