/** oidc-provider ships no type declarations; the tests use a few of its members. */
declare module "oidc-provider" {
  const Provider: any
  export default Provider
}
