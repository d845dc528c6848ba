/** pg's own conversion of a bound value (Date, Buffer, array, object) to what it sends: what its queries bind with. */
declare module "pg/lib/utils.js" {
  export const prepareValue: (value: unknown) => unknown
}
