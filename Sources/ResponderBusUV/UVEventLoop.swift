// The libuv loop lives here.
import ResponderBus
