package differentiable

// ListedStages are the stages this package's tests list (stages), for the external
// test that checks them against the registry's.
var ListedStages = stages
