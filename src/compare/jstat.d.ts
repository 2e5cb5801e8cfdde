// The part of jstat (https://github.com/jstat/jstat, no bundled types) that compare and sampling/precision use.
declare module 'jstat' {
  const jStat: {
    /** Complementary error function. */
    erfc(x: number): number;
    studentt: {
      /** Student's t distribution CDF with `dof` degrees of freedom. */
      cdf(x: number, dof: number): number;
      /** Its quantile function (used by src/sampling/precision.ts). */
      inv(p: number, dof: number): number;
    };
    chisquare: {
      /** The chi-square quantile function. */
      inv(p: number, dof: number): number;
    };
    normal: {
      /** The normal quantile function (an interval whose degrees of freedom are infinite). */
      inv(p: number, mean: number, sd: number): number;
    };
  };
  export default jStat;
}
